//! `ray`: Bresenham rays from the origin to every cell on the perimeter of the radius' square,
//! each stopping at the first opaque cell; then walls next to lit floor are lit.
//!
//! Source: libtcod FOV_BASIC, `src/libtcod/fov_circular_raycasting.c` (libtcod ≥ 1.16, after
//! issue #77), the FOV of the Terminus and Caves of Zircon tutorials:
//! - Rays go to every cell on the perimeter of the box `[ox - r, ox + r] × [oy - r, oy + r]`
//!   clipped to the map (with no radius: the map's border).
//! - Lines are libtcod's `TCOD_line`: the major axis is the strictly longer one (x only when
//!   |dx| > |dy|), and after `k` major steps the minor offset is `ceil(k·|minor|/|major| − ½)`:
//!   exact halves round toward the start. The origin is not part of the line.
//! - A ray stops beyond the radius (`dx² + dy² > r²`) or at the first opaque cell, which is lit
//!   when walls are.
//! - With `light_walls`, libtcod's post-processing then lights every opaque cell that is the
//!   outward horizontal, vertical or diagonal neighbour (away from the origin, in the same
//!   quadrant) of a lit transparent cell. libtcod does that without a radius test; we keep it
//!   within the radius, as the shared contract requires.
//!
//! Properties: not symmetric (lines are not reversible); ray gaps: some floor cells no ray passes
//! through stay dark, and which ones depends on the radius; pillars cast ragged shadows.
//!
//! How it is computed: when the box lies inside the map and `r ≤ 63`, every ray has `r` major
//! steps, and step `k` of every ray is on the square ring at Chebyshev distance `k`. An octant's
//! `r + 1` rays are then one word of bits, the rays still going, and the rays advance a ring at a
//! time ([`RingTable`]): the ring's cells they reach are lit, and those whose cell is opaque stop.
//! Otherwise (a box the map's edge clips: the rays aim elsewhere) each ray is walked cell by
//! cell. Both give the same cells (`rings_give_the_ray_by_ray_view`). By rings, an octant's
//! rings before its first wall within the radius are found and lit for all eight octants at once
//! (`open_rows.rs`), and its rays start after them.

use std::cell::RefCell;

use super::open_rows::{RowExtent, light_open_rows};
use super::{Axis, FovContext, OctantLines, Opacity, with_radius_cols};

/// The minor-axis offset after `k` steps along a `TCOD_line` with `major` steps and `minor`
/// offset in all (`|minor| ≤ major`): `ceil(k·|minor|/major − ½)`, signed like `minor`.
#[inline]
pub(crate) fn tcod_line_minor(k: i32, minor: i32, major: i32) -> i32 {
    let m = minor.abs();
    let v = (2 * k * m + major - 1).div_euclid(2 * major);
    if minor < 0 { -v } else { v }
}

fn cast<O: Opacity>(ctx: &mut FovContext<'_, O>, tx: i32, ty: i32) {
    let x_major = tx.abs() > ty.abs();
    let n = if x_major { tx.abs() } else { ty.abs() };
    for k in 1..=n {
        let (dx, dy) = if x_major {
            (k * tx.signum(), tcod_line_minor(k, ty, n))
        } else {
            (tcod_line_minor(k, tx, n), k * ty.signum())
        };
        if !ctx.in_radius(dx, dy) {
            return;
        }
        let (x, y) = (ctx.ox + dx, ctx.oy + dy);
        if ctx.is_opaque(x, y) {
            ctx.reveal(x, y);
            return;
        }
        ctx.visible.mark(x, y);
    }
}

/// The box rays aim at: the radius' square clipped to the map, inclusive.
pub(crate) fn ray_box<O: Opacity>(ctx: &FovContext<'_, O>) -> (i32, i32, i32, i32) {
    let r = ctx.reach;
    (
        (ctx.ox - r).max(0),
        (ctx.oy - r).max(0),
        (ctx.ox + r).min(ctx.grid.width() - 1),
        (ctx.oy + r).min(ctx.grid.height() - 1),
    )
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let (x0, y0, x1, y1) = ray_box(ctx);
    let r = ctx.reach;
    let unclipped = (x0, y0, x1, y1) == (ctx.ox - r, ctx.oy - r, ctx.ox + r, ctx.oy + r);
    let disc_open = if unclipped && (1..=RingTable::MAX_RADIUS).contains(&r) && ctx.radius_squared == i64::from(r * r) {
        by_rings(ctx, r)
    } else {
        ray_by_ray(ctx, (x0, y0, x1, y1));
        false
    };
    // With no wall within the radius there is none to light.
    if ctx.light_walls && !disc_open {
        light_walls_outward(ctx, (x0, y0, x1, y1));
    }
}

/// Walks each ray cell by cell: the definition as written, for any box.
fn ray_by_ray<O: Opacity>(ctx: &mut FovContext<'_, O>, (x0, y0, x1, y1): (i32, i32, i32, i32)) {
    let (ox, oy) = (ctx.ox, ctx.oy);
    for x in x0..=x1 {
        cast(ctx, x - ox, y0 - oy);
        cast(ctx, x - ox, y1 - oy);
    }
    for y in y0 + 1..y1 {
        cast(ctx, x0 - ox, y - oy);
        cast(ctx, x1 - ox, y - oy);
    }
}

/// Where one radius' rays are at each ring, in octant coordinates: in the octant whose major
/// axis is `+x` and minor axis `+y`, ray `j` (`0 ≤ j ≤ r`) aims at `(r, j)`, and after `k` steps
/// it is at `(k, tcod_line_minor(k, j, r))`. (The corner ray `(r, r)` is y-major, but it is at
/// `(k, k)` either way.) The other seven octants are this one mirrored: `tcod_line_minor` is odd
/// in `minor` and the same formula for either major axis.
///
/// At ring `k`, the minor offset grows with `j` by at most 1 a ray (`k ≤ r`), so the rays fall
/// on the ring's cells `0..=k` in order, each cell taking a run of consecutive rays.
#[derive(Default)]
struct RingTable {
    radius: i32,
    /// Per ring `k` (index `k − 1`), `r + 1` entries: the cell ray `j` is on.
    cell_of_ray: Vec<u8>,
    /// Per ring `k`, from [`RingTable::first_ray_start`]: `k + 2` entries, the first ray on each
    /// cell `0..=k` and then `r + 1`.
    first_ray: Vec<u8>,
    /// Per ring `k`: the rays whose cell there is within the radius (`k² + minor² ≤ r²`).
    rays_in_radius: Vec<u64>,
}

impl RingTable {
    /// An octant's `r + 1` rays are one word.
    const MAX_RADIUS: i32 = 63;

    /// Where ring `k`'s entries of `first_ray` start: rings `1..k` hold `t + 2` each.
    #[inline(always)]
    fn first_ray_start(k: i32) -> usize {
        ((k - 1) * (k + 4) / 2) as usize
    }

    /// Rebuilds the table for radius `r` unless it is the last call's (the common case: one
    /// actor's radius, view after view). About `r²` steps.
    fn prepare(&mut self, r: i32) {
        if self.radius == r {
            return;
        }
        self.radius = r;
        self.cell_of_ray.clear();
        self.first_ray.clear();
        self.rays_in_radius.clear();
        for k in 1..=r {
            debug_assert_eq!(self.first_ray.len(), Self::first_ray_start(k));
            let mut in_radius = 0u64;
            let mut last = -1;
            for j in 0..=r {
                let cell = tcod_line_minor(k, j, r);
                self.cell_of_ray.push(cell as u8);
                if cell != last {
                    self.first_ray.push(j as u8);
                    last = cell;
                }
                if k * k + cell * cell <= r * r {
                    in_radius |= 1 << j;
                }
            }
            debug_assert_eq!(self.first_ray.len(), Self::first_ray_start(k) + k as usize + 1);
            self.first_ray.push((r + 1) as u8);
            self.rays_in_radius.push(in_radius);
        }
    }
}

thread_local! {
    static RING_TABLE: RefCell<RingTable> = RefCell::new(RingTable::default());
}

/// Bits `low..=high` (`high ≤ 63`).
#[inline(always)]
fn bit_range(low: u32, high: u32) -> u64 {
    (u64::MAX << low) & (u64::MAX >> (63 - high))
}

/// The rays of each octant advanced a ring at a time (see [`RingTable`]); the box must lie inside
/// the map and `r` be the radius.
///
/// An octant's rows before its first wall within the radius (see `open_rows.rs`) are lit
/// first: every cell of them within the radius is on a ray, and each ray still going there is
/// still going after them, so the octant's rays start at its first closed ring. Returns whether
/// every octant is open to the radius: no wall within it.
fn by_rings<O: Opacity>(ctx: &mut FovContext<'_, O>, r: i32) -> bool {
    let open = with_radius_cols(ctx.radius_squared, |radius_cols| {
        light_open_rows(ctx, radius_cols, u8::MAX, 1, RowExtent::WithinRadius)
    });
    if open.all_open_to(r) {
        return true;
    }
    RING_TABLE.with(|table| {
        let mut table = table.borrow_mut();
        table.prepare(r);
        let table = &*table;
        // (minor's x, major's x, minor's y, major's y), as `OctantLines::new` takes them.
        for (xx, xy, yx, yy) in [
            (0, 1, 1, 0),
            (0, 1, -1, 0),
            (0, -1, 1, 0),
            (0, -1, -1, 0),
            (1, 0, 0, 1),
            (-1, 0, 0, 1),
            (1, 0, 0, -1),
            (-1, 0, 0, -1),
        ] {
            let lines = OctantLines::new((ctx.ox, ctx.oy), (xx, xy, yx, yy));
            let first = open.first_closed(&lines);
            if lines.sign > 0 {
                octant_by_rings::<false, O>(ctx, table, &lines, first);
            } else {
                octant_by_rings::<true, O>(ctx, table, &lines, first);
            }
        }
    });
    false
}

/// One octant of [`by_rings`]. A ring's cells are bits of the 64 map cells from the origin's
/// line outward: bit `i` for minor offset `i`, or with `FLIP` (an octant whose minor offsets
/// run against the map's axis) bit `63 − i`, so that the words read from the map and written to
/// the set need no reversing.
/// The rays start at ring `first` (the rings before it lit, and no ray stopped in them).
fn octant_by_rings<const FLIP: bool, O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    table: &RingTable,
    lines: &OctantLines,
    first: i32,
) {
    let r = table.radius;
    let bit = |cell: u8| if FLIP { 63 - u32::from(cell) } else { u32::from(cell) };
    // Map position of bit 0.
    let window = if FLIP { lines.base - 63 } else { lines.base };
    // A ray leaves the radius for good (the distance grows along it), so the rays in the radius
    // at ring `k` are those still going there when no wall has stopped any.
    let mut going = u64::MAX >> (63 - r);
    for k in first..=r {
        going &= table.rays_in_radius[k as usize - 1];
        if going == 0 {
            break;
        }
        let cell_of_ray = &table.cell_of_ray[(k as usize - 1) * (r as usize + 1)..][..r as usize + 1];
        // The cells the rays reach: each run of going rays covers the cells from its first
        // ray's to its last's.
        let mut reached = 0u64;
        let mut runs = going;
        while runs != 0 {
            let first = runs.trailing_zeros();
            let last = first + (runs >> first).trailing_ones() - 1;
            let (a, b) = (bit(cell_of_ray[first as usize]), bit(cell_of_ray[last as usize]));
            reached |= if FLIP { bit_range(b, a) } else { bit_range(a, b) };
            // Clears the lowest run of ones.
            runs &= runs.wrapping_add(runs & runs.wrapping_neg());
        }
        // Reads the cells reached, and only those (what the rays walked one by one would read).
        let line = lines.line(k);
        let opaque = ctx.grid.line_bits_masked(lines.axis, line, window, reached);
        ctx.mark_bits(lines.axis, line, window, if ctx.light_walls { reached } else { reached & !opaque });
        // Rays that reached an opaque cell stop there.
        let first_ray = &table.first_ray[RingTable::first_ray_start(k)..];
        let mut stopped = opaque;
        while stopped != 0 {
            let at = stopped.trailing_zeros();
            let cell = (if FLIP { 63 - at } else { at }) as usize;
            going &= !bit_range(u32::from(first_ray[cell]), u32::from(first_ray[cell + 1]) - 1);
            stopped &= stopped - 1;
        }
    }
}

/// libtcod's `TCOD_map_postprocess`, kept within the radius: in each quadrant box (sharing the
/// origin's row and column), an opaque cell next to a lit transparent cell, on the side away from
/// the origin (horizontally, vertically or diagonally), is lit.
///
/// A box up to 128 cells wide (a row is one word up to 64, two up to 128) goes a row at a time,
/// both quadrants of the row at once, as bits: the row's lit floor shifted one cell outward (left
/// of the origin's column, right of it), and the lit floor of the row before (nearer the
/// origin), shifted and not, meet the row's walls.
/// A row whose cells within the radius are all lit (every row of an open map) has no wall to
/// light, and its opacity is read only if the row after it needs its lit floor. Wider boxes (no
/// radius) go cell by cell.
pub(crate) fn light_walls_outward<O: Opacity>(ctx: &mut FovContext<'_, O>, bounds: (i32, i32, i32, i32)) {
    // Every lit cell is in the set's rows, not waiting in its column lines.
    ctx.visible.merge_columns();
    match bounds.2 - bounds.0 + 1 {
        ..=64 => light_walls_outward_rows::<u64, O>(ctx, bounds),
        65..=128 => light_walls_outward_rows::<u128, O>(ctx, bounds),
        _ => light_walls_outward_cells(ctx, bounds),
    }
}

/// A box row's cells as bits, bit `i` for the box's column `i`: one word for a box up to 64
/// cells wide (every radius up to 31), two up to 128.
trait BoxRow:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const BITS: u32;
    const ONES: Self;
    const ZERO: Self;
    /// From the box row's first 64 cells and the next 64 (dropped by a one-word row).
    fn from_words(low: u64, high: u64) -> Self;
    fn low(self) -> u64;
    fn high(self) -> u64;
}

impl BoxRow for u64 {
    const BITS: u32 = 64;
    const ONES: Self = u64::MAX;
    const ZERO: Self = 0;
    #[inline(always)]
    fn from_words(low: u64, _high: u64) -> Self {
        low
    }
    #[inline(always)]
    fn low(self) -> u64 {
        self
    }
    #[inline(always)]
    fn high(self) -> u64 {
        0
    }
}

impl BoxRow for u128 {
    const BITS: u32 = 128;
    const ONES: Self = u128::MAX;
    const ZERO: Self = 0;
    #[inline(always)]
    fn from_words(low: u64, high: u64) -> Self {
        u128::from(low) | u128::from(high) << 64
    }
    #[inline(always)]
    fn low(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn high(self) -> u64 {
        (self >> 64) as u64
    }
}

/// [`light_walls_outward`] for a box up to `W::BITS` cells wide. (A one-word row for boxes up
/// to 64 wide: with two-word rows everywhere the pass was most of what `ray` spent on the open
/// map beyond its open rows.)
fn light_walls_outward_rows<W: BoxRow, O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
) {
    let (ox, oy) = (ctx.ox, ctx.oy);
    let width = (x1 - x0 + 1) as u32;
    let in_box = W::ONES >> (W::BITS - width);
    let origin_bit = (ox - x0) as u32;
    // The west quadrants' columns (up to the origin's) and the east's (from it on).
    let west = W::ONES >> (W::BITS - 1 - origin_bit);
    let east = in_box & (W::ONES << origin_bit);
    let two_words = W::BITS > 64 && width > 64;
    // The opacity of the row's cells in `mask`, reading no others (as the cell-by-cell pass
    // reads only lit cells and their outward neighbours).
    let opacity = |ctx: &FovContext<'_, O>, y: i32, mask: W| {
        let low = ctx.grid.line_bits_masked(Axis::Row, y, x0, mask.low());
        let high = if mask.high() != 0 { ctx.grid.line_bits_masked(Axis::Row, y, x0 + 64, mask.high()) } else { 0 };
        W::from_words(low, high)
    };
    let lit_bits = |ctx: &FovContext<'_, O>, y: i32| {
        let low = ctx.visible.row_bits(y, x0);
        let high = if two_words { ctx.visible.row_bits(y, x0 + 64) } else { 0 };
        W::from_words(low, high) & in_box
    };
    with_radius_cols(ctx.radius_squared, |cols| {
        for (end, sy) in [(y0, -1), (y1, 1)] {
            // The row before, nearer the origin: its lit cells, and its lit floor once read.
            let (mut lit_before, mut floor_before) = (W::ZERO, Some(W::ZERO));
            let mut y = oy;
            loop {
                let lit = lit_bits(ctx, y);
                let half_width = cols.get((y - oy).abs());
                let mut floor = None;
                if half_width >= 0 {
                    let a = (ox.saturating_sub(half_width).max(x0) - x0) as u32;
                    let b = (ox.saturating_add(half_width).min(x1) - x0) as u32;
                    let unlit = (W::ONES << a) & (W::ONES >> (W::BITS - 1 - b)) & !lit;
                    if unlit != W::ZERO {
                        let lit_floor = lit & !opacity(ctx, y, lit);
                        floor = Some(lit_floor);
                        let lit_floor_before =
                            floor_before.unwrap_or_else(|| lit_before & !opacity(ctx, y - sy, lit_before));
                        let (floor_w, floor_e) = (lit_floor & west, lit_floor & east);
                        let (before_w, before_e) = (lit_floor_before & west, lit_floor_before & east);
                        let next_to_floor = ((floor_w >> 1 | before_w | before_w >> 1) & west
                            | (floor_e << 1 | before_e | before_e << 1) & east)
                            & unlit;
                        if next_to_floor != W::ZERO {
                            let walls = opacity(ctx, y, next_to_floor);
                            if walls != W::ZERO {
                                ctx.visible.mark_row_bits(y, x0, walls.low());
                                if two_words {
                                    ctx.visible.mark_row_bits(y, x0 + 64, walls.high());
                                }
                            }
                        }
                    }
                }
                (lit_before, floor_before) = (lit, floor);
                if y == end {
                    break;
                }
                y += sy;
            }
        }
    });
}

/// [`light_walls_outward`] cell by cell, quadrant by quadrant: the pass as libtcod writes it.
fn light_walls_outward_cells<O: Opacity>(ctx: &mut FovContext<'_, O>, (x0, y0, x1, y1): (i32, i32, i32, i32)) {
    let (ox, oy) = (ctx.ox, ctx.oy);
    for (bx0, by0, bx1, by1, sx, sy) in
        [(x0, y0, ox, oy, -1, -1), (ox, y0, x1, oy, 1, -1), (x0, oy, ox, y1, -1, 1), (ox, oy, x1, y1, 1, 1)]
    {
        for cx in bx0..=bx1 {
            for cy in by0..=by1 {
                if !ctx.visible.contains(cx, cy) || ctx.is_opaque(cx, cy) {
                    continue;
                }
                let (nx, ny) = (cx + sx, cy + sy);
                let x_in = (bx0..=bx1).contains(&nx);
                let y_in = (by0..=by1).contains(&ny);
                for (ok, x, y) in [(x_in, nx, cy), (y_in, cx, ny), (x_in && y_in, nx, ny)] {
                    if ok && ctx.is_opaque(x, y) && ctx.in_radius(x - ox, y - oy) {
                        ctx.visible.mark(x, y);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::reference::{assert_same_views, random_grid, view_of};
    use crate::core::fov::{Algorithm, FovContext, FovParams, OpacityGrid, VisibleSet, compute as compute_view};
    use crate::core::model::geometry::Cell;
    use crate::core::rng::Rng;

    /// The definition as written: every ray walked, then every quadrant's cells tested.
    fn walk_rays<O: Opacity>(ctx: &mut FovContext<'_, O>) {
        let ray_box = ray_box(ctx);
        ray_by_ray(ctx, ray_box);
        if ctx.light_walls {
            light_walls_outward_cells(ctx, ray_box);
        }
    }

    fn ray_by_ray_view(grid: &OpacityGrid, params: FovParams) -> Vec<(i32, i32)> {
        view_of(grid, params, walk_rays)
    }

    #[test]
    fn rings_give_the_ray_by_ray_view() {
        let mut rng = Rng::new(41);
        let mut rings = 0;
        for round in 0..600 {
            let r = 1 + rng.below(63) as i32;
            // Room for the box, and more across word boundaries.
            let (w, h) = ((2 * r + 1) as u32 + rng.below(70), (2 * r + 1) as u32 + rng.below(70));
            let grid = random_grid(&mut rng, w, h, [0.0, 0.002, 0.02, 0.1, 0.3, 0.5][round % 6]);
            // Mostly origins whose box fits (the rings), some anywhere (rays one by one).
            let origin = if round % 4 == 0 {
                Cell::new(rng.below(w) as i32, rng.below(h) as i32)
            } else {
                Cell::new(r + rng.below(w - 2 * r as u32) as i32, r + rng.below(h - 2 * r as u32) as i32)
            };
            let params = FovParams { origin, radius: Some(r as u32), light_walls: round % 3 != 0 };
            let fits = origin.x >= r && origin.y >= r && origin.x + r < w as i32 && origin.y + r < h as i32;
            rings += usize::from(fits);
            let mut visible = VisibleSet::new(w, h);
            compute_view(Algorithm::Ray, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            assert_eq!(ours, ray_by_ray_view(&grid, params), "round {round}: {w}×{h}, {params:?}");
        }
        assert!(rings > 400, "only {rings} views went by rings");
    }

    /// A grid that notes every cell read.
    struct Recording<'a> {
        grid: &'a OpacityGrid,
        read: std::cell::RefCell<std::collections::BTreeSet<(i32, i32)>>,
    }

    impl Opacity for Recording<'_> {
        fn width(&self) -> i32 {
            self.grid.width()
        }
        fn height(&self) -> i32 {
            self.grid.height()
        }
        fn is_opaque(&self, x: i32, y: i32) -> bool {
            self.read.borrow_mut().insert((x, y));
            self.grid.is_opaque(x, y)
        }
    }

    /// The rings and the walls pass as words read no cell the rays and the pass walked cell by
    /// cell would not (the LOS cache takes a view's reads for the cells it depends on).
    #[test]
    fn rings_read_no_more_than_the_rays() {
        let mut rng = Rng::new(43);
        for round in 0..200 {
            let r = 1 + rng.below(30) as i32;
            let (w, h) = ((2 * r + 1) as u32 + rng.below(20), (2 * r + 1) as u32 + rng.below(20));
            let grid = random_grid(&mut rng, w, h, [0.0, 0.005, 0.05, 0.2, 0.4][round % 5]);
            let origin = Cell::new(r + rng.below(w - 2 * r as u32) as i32, r + rng.below(h - 2 * r as u32) as i32);
            let params = FovParams { origin, radius: Some(r as u32), light_walls: round % 4 != 0 };
            let ours = Recording { grid: &grid, read: Default::default() };
            let mut visible = VisibleSet::new(w, h);
            compute_view(Algorithm::Ray, &ours, params, &mut visible);
            let walked = Recording { grid: &grid, read: Default::default() };
            let mut visible_walked = VisibleSet::new(w, h);
            crate::core::fov::scan_with(&walked, params, &mut visible_walked, walk_rays);
            let (ours, walked) = (ours.read.into_inner(), walked.read.into_inner());
            let extra: Vec<_> = ours.difference(&walked).collect();
            assert!(extra.is_empty(), "round {round}: {params:?} read {extra:?} besides");
            // And it reads what it shows.
            assert!(visible.iter().all(|c| c == origin || ours.contains(&(c.x, c.y))), "round {round}");
        }
    }

    #[test]
    fn any_placement_gives_the_ray_by_ray_view() {
        assert_same_views(Algorithm::Ray, 42, [0.05, 0.2, 0.35, 0.5], ray_by_ray_view);
    }
}
