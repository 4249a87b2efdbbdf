//! MRPAS at radius 1 to [`MAX_RADIUS`] by lookup: each octant's view is read from a table
//! instead of scanned.
//!
//! The same definition as the scan (the module above): the tables are made by running
//! [`short_view::octant`] itself on every pattern of an octant's cells. At radius `r` an
//! octant's lines `1..=r` hold `r(r + 3)/2` cells (14 at radius 4), so one table of `2^14`
//! entries serves the eight octants: each reads its cells out of the square around the origin
//! (`pext`), puts them in the table's order (two lookups of seven bits), looks up which of them
//! it sees, and puts those back (two lookups and a `pdep`).
//!
//! An octant's scan is not quite on its own: the "behind" test of lines 2 and on reads the
//! record of the cells seen and clear on the line before, and at the line's first two and last
//! two cells that record also holds what the octants before it saw (the axis and the diagonal
//! are shared; the cells just across them are theirs). Those are `4(r − 1)` cells of the record,
//! the octant's *outside* cells. The table holds each pattern's view with no outside cell
//! recorded, and the outside cells that would each, recorded alone, change it. When the octants
//! before have recorded none of those, the view is the table's: a recorded outside cell can only
//! make a cell a candidate that was not; a candidate that is hidden changes nothing, and one that
//! is not is seen, which the lone cell would have done too (so it is one of those listed).
//! Otherwise the whole view is left to the scan. That never happens on random maps of 0% to 60%
//! walls, at every origin and radius (the tests assert it: no earlier octant's record changes a
//! later one's view at these radii), but the check keeps the tables exact without a proof that
//! it cannot.
//!
//! A view is taken here only when its square lies on the map and the grid lets a view read
//! cells its algorithm does not look at ([`Opacity::BLOCK_READS`]): the LOS cache records which
//! cells a view read, and reading the whole square would make every view depend on all of it.

use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
use super::super::small_box::Bmi2;
use super::super::small_box::{BitGather, BoxHalves, Portable, SIDE, half_bit, in_bottom, permutation};
use super::super::{Axis, FovContext, Opacity, OpacityGrid, VisibleSet};
use super::short_view::{self, ShortBox};

/// The largest radius taken here (tables of `2^14` entries, 64 KB, and the square 9 cells wide).
pub(super) const MAX_RADIUS: i32 = 4;

/// Where an octant's cells lie in its half, and how its `pext` order maps to the table's.
struct OctantPlace {
    /// In the bottom half (else the top).
    bottom: bool,
    /// The octant's cells (lines `1..=r`, cells `0..=n`) in its half.
    cells: u64,
    /// Its outside cells in its half.
    outside: u64,
    /// The table's bits of the cells `pext` gives as bits 0–6 and 7–13.
    cells_to_table: [[u16; 128]; 2],
    /// The `pext` bits of the table's bits 0–6 and 7–13 (the inverse).
    table_to_cells: [[u16; 128]; 2],
    /// The table's outside bits of the outside cells `pext` gives as bits 0–5 and 6–11.
    outside_to_table: [[u16; 64]; 2],
}

/// One radius' table and the octants' places.
struct RadiusTable {
    /// Per pattern of an octant's cells (bit `n(n + 1)/2 − 1 + k` for cell `k` of line `n`, set
    /// when opaque): bits 0–13 the cells seen with no outside cell recorded, bits 16 and up the
    /// outside cells that each, recorded alone, change that.
    entries: Vec<u32>,
    /// In the order the scan takes the octants.
    octants: Vec<OctantPlace>,
    /// Per row of the square (−4 to +4), the columns within the radius.
    disc: [u64; SIDE as usize],
}

/// The scan's octants in its order: lines along y (`vertical`), `dm` the step along the main
/// axis and `dc` the step across (see `short_view::scan`).
const OCTANTS: [(bool, i32, i32); 8] = [
    (true, 1, 1),
    (false, 1, 1),
    (true, -1, 1),
    (false, 1, -1),
    (true, 1, -1),
    (false, -1, 1),
    (true, -1, -1),
    (false, -1, -1),
];

/// The map offset of cell `k` of line `n` of an octant.
fn offset((vertical, dm, dc): (bool, i32, i32), n: i32, k: i32) -> (i32, i32) {
    if vertical { (dc * k, dm * n) } else { (dm * n, dc * k) }
}

/// The table bit of cell `k` of line `n`.
fn cell_bit(n: i32, k: i32) -> u32 {
    (n * (n + 1) / 2 - 1 + k) as u32
}

/// An octant's cells at radius `r` as (line, cell): lines `1..=r`, cells `0..=n`.
fn octant_cells(r: i32) -> Vec<(i32, i32)> {
    (1..=r).flat_map(|n| (0..=n).map(move |k| (n, k))).collect()
}

/// The outside cells of radius `r` as (line, cell), in the order of their table bits: for each
/// line `n` from 2, the cells of line `n − 1` its behind test reads beyond the octant's own
/// record: the axis cell and the one across it, the diagonal cell and the one across it.
fn outside_cells(r: i32) -> Vec<(i32, i32)> {
    (2..=r).flat_map(|n| [(n - 1, 0), (n - 1, -1), (n - 1, n - 1), (n - 1, n)]).collect()
}

impl OctantPlace {
    fn new(r: i32, octant: (bool, i32, i32)) -> Self {
        let cells = octant_cells(r);
        let outside = outside_cells(r);
        let offsets = cells.iter().chain(&outside).map(|&(n, k)| offset(octant, n, k));
        let bottom = in_bottom(offsets.map(|(_, dy)| dy));
        let mask = |cells: &[(i32, i32)]| {
            cells.iter().fold(0u64, |mask, &(n, k)| mask | 1 << half_bit(bottom, offset(octant, n, k)))
        };
        let (cells_mask, outside_mask) = (mask(&cells), mask(&outside));
        // `pext` gives a mask's cells in the order of their bits in the half.
        let in_half_order = |list: &[(i32, i32)], mask: u64| -> Vec<usize> {
            let mut order: Vec<usize> = (0..list.len()).collect();
            order.sort_by_key(|&i| half_bit(bottom, offset(octant, list[i].0, list[i].1)));
            debug_assert_eq!(order.len(), mask.count_ones() as usize);
            order
        };
        let cell_order = in_half_order(&cells, cells_mask);
        let to_table: Vec<u32> = cell_order.iter().map(|&i| cell_bit(cells[i].0, cells[i].1)).collect();
        let mut to_cells = vec![0; to_table.len()];
        for (p, &t) in to_table.iter().enumerate() {
            to_cells[t as usize] = p as u32;
        }
        let outside_order = in_half_order(&outside, outside_mask);
        let outside_to_table: Vec<u32> = outside_order.iter().map(|&i| i as u32).collect();
        Self {
            bottom,
            cells: cells_mask,
            outside: outside_mask,
            cells_to_table: permutation(&to_table, 7),
            table_to_cells: permutation(&to_cells, 7),
            outside_to_table: permutation(&outside_to_table, 6),
        }
    }
}

/// The scan's first octant on a map just large enough, run on one pattern of its cells at a
/// time: what the table is made of.
struct CanonicalOctant {
    r: i32,
    grid: OpacityGrid,
    visible: VisibleSet,
    record: ShortBox,
    cells: Vec<(i32, i32)>,
    outside: Vec<(i32, i32)>,
}

impl CanonicalOctant {
    fn new(r: i32) -> Self {
        let side = (2 * r + 3) as u32;
        Self {
            r,
            grid: OpacityGrid::new(side, side),
            visible: VisibleSet::new(side, side),
            record: ShortBox::default(),
            cells: octant_cells(r),
            outside: outside_cells(r),
        }
    }

    /// Makes the octant's cells opaque where `pattern` (table bits) is set.
    fn set_pattern(&mut self, pattern: u32) {
        let c = self.r + 1;
        for &(n, k) in &self.cells {
            self.grid.set(c + k, c + n, pattern >> cell_bit(n, k) & 1 != 0);
        }
    }

    /// The cells the octant sees (table bits) when the earlier octants have recorded the
    /// outside cells of `recorded` (table outside bits) as seen and clear.
    fn seen_with(&mut self, recorded: u32) -> u32 {
        let (r, c) = (self.r, self.r + 1);
        self.record.clear((2 * r + 3) as usize);
        for (i, &(n, k)) in self.outside.iter().enumerate() {
            if recorded >> i & 1 != 0 {
                self.record.record_clear(c + k, c + n);
            }
        }
        let ctx = FovContext {
            grid: &self.grid,
            ox: c,
            oy: c,
            radius_squared: i64::from(r * r),
            reach: r,
            light_walls: true,
            visible: &mut self.visible,
        };
        short_view::octant::<true, OpacityGrid>(&ctx, &mut self.record, 1, true, 1);
        let seen = &self.record.seen;
        self.cells
            .iter()
            .fold(0, |out, &(n, k)| out | (((seen[(c + n) as usize] >> (c + k)) & 1) as u32) << cell_bit(n, k))
    }
}

impl RadiusTable {
    /// Runs the scan's octant on every pattern of its cells.
    fn new(r: i32) -> Self {
        let mut octant = CanonicalOctant::new(r);
        let (cells, outside) = (octant.cells.len(), octant.outside.len());
        let mut entries = Vec::with_capacity(1 << cells);
        for pattern in 0..1u32 << cells {
            octant.set_pattern(pattern);
            let alone = octant.seen_with(0);
            let changing = (0..outside).filter(|&i| octant.seen_with(1 << i) != alone).fold(0, |bits, i| bits | 1 << i);
            entries.push(alone | changing << 16);
        }
        let mut disc = [0; SIDE as usize];
        for (row, columns) in disc.iter_mut().enumerate() {
            let dy = row as i32 - 4;
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    *columns |= 1 << (dx + 4);
                }
            }
        }
        let octants = OCTANTS.iter().map(|&octant| OctantPlace::new(r, octant)).collect();
        Self { entries, octants, disc }
    }
}

/// The table of radius `r` (1 to [`MAX_RADIUS`]), made on first use (radius 4: about
/// 230 000 octant scans, a few tens of milliseconds).
fn table(r: i32) -> &'static RadiusTable {
    static TABLES: [OnceLock<RadiusTable>; MAX_RADIUS as usize] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[(r - 1) as usize].get_or_init(|| RadiusTable::new(r))
}

/// Whether [`view`] may take this view: radius 1 to [`MAX_RADIUS`], its square on the map, and
/// a grid that lets a view read the whole square.
#[inline]
pub(super) fn takes<O: Opacity>(ctx: &FovContext<'_, O>) -> bool {
    let r = ctx.reach;
    O::BLOCK_READS
        && (1..=MAX_RADIUS).contains(&r)
        && ctx.radius_squared == i64::from(r * r)
        && ctx.ox >= r
        && ctx.oy >= r
        && ctx.ox + r < ctx.grid.width()
        && ctx.oy + r < ctx.grid.height()
}

/// Lights the view (see the module's comment) and returns true, or returns false having lit
/// nothing when an earlier octant's record would change a later one's view.
pub(super) fn view<O: Opacity>(ctx: &mut FovContext<'_, O>) -> bool {
    debug_assert!(takes(ctx));
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, the one feature `view_bmi2` is compiled for.
        return unsafe { view_bmi2(ctx) };
    }
    view_with::<Portable, O>(ctx)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn view_bmi2<O: Opacity>(ctx: &mut FovContext<'_, O>) -> bool {
    view_with::<Bmi2, O>(ctx)
}

#[inline(always)]
pub(super) fn view_with<G: BitGather, O: Opacity>(ctx: &mut FovContext<'_, O>) -> bool {
    let r = ctx.reach;
    let table = table(r);
    let (ox, oy) = (ctx.ox, ctx.oy);
    let width = 2 * r + 1;
    // The square's opacity, row by row, centred on column 4.
    let mut opacity = [0u64; SIDE as usize];
    for dy in -r..=r {
        let bits = ctx.grid.line_bits(Axis::Row, oy + dy, ox - r, width as u32) & ((1 << width) - 1);
        opacity[(dy + 4) as usize] = bits << (4 - r);
    }
    let opaque = BoxHalves::from_rows(&opacity);
    // The cells seen so far.
    let mut seen = BoxHalves::default();
    for place in &table.octants {
        let (opaque, seen_here) = (opaque.half(place.bottom), seen.half(place.bottom));
        let cells = G::gather(opaque, place.cells);
        let pattern = place.cells_to_table[0][(cells & 127) as usize] | place.cells_to_table[1][(cells >> 7) as usize];
        let entry = table.entries[pattern as usize];
        let changing = entry >> 16;
        if changing != 0 {
            let recorded = G::gather(seen_here & !opaque, place.outside);
            let recorded = place.outside_to_table[0][(recorded & 63) as usize]
                | place.outside_to_table[1][(recorded >> 6) as usize];
            if u32::from(recorded) & changing != 0 {
                return false;
            }
        }
        let lit = entry & 0x3fff;
        let lit = place.table_to_cells[0][(lit & 127) as usize] | place.table_to_cells[1][(lit >> 7) as usize];
        let lit = G::scatter(u64::from(lit), place.cells);
        seen.add(place.bottom, lit);
    }
    // The cells seen within the radius are lit (the clear ones only, when walls are not).
    for dy in -r..=r {
        let row = (dy + 4) as u32;
        let mut lit = seen.row(row) & table.disc[row as usize];
        if !ctx.light_walls {
            lit &= !opacity[row as usize];
        }
        ctx.visible.mark_row_bits(oy + dy, ox - r, (lit & 0x1ff) >> (4 - r));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::fov::FovParams;
    use crate::core::fov::reference::{CellByCell, random_grid, view_of};
    use crate::core::rng::Rng;

    /// Every origin whose square lies on the map, radius 1 to 4, walls lit or not: the tables
    /// (with BMI2 where the processor has it, and without) give the scan's view.
    #[test]
    fn table_views_are_the_scans() {
        let mut rng = Rng::new(41);
        let mut views = 0;
        for (round, density) in [0.0, 0.1, 0.3, 0.45, 0.6].into_iter().cycle().take(15).enumerate() {
            let grid = random_grid(&mut rng, 70, 40, density);
            for r in 1..=MAX_RADIUS {
                for oy in r..40 - r {
                    for ox in r..70 - r {
                        let params = FovParams {
                            origin: Cell::new(ox, oy),
                            radius: Some(r as u32),
                            light_walls: round % 3 != 0,
                        };
                        let scanned = view_of(&grid, params, |ctx| super::super::scan(ctx, true));
                        let tabled = view_of(&grid, params, |ctx| {
                            assert!(takes(ctx));
                            assert!(view(ctx), "no earlier octant's record changes a later one's view");
                        });
                        let portable = view_of(&grid, params, |ctx| assert!(view_with::<Portable, _>(ctx)));
                        assert_eq!(tabled, scanned, "density {density}, radius {r}, {params:?}");
                        assert_eq!(portable, scanned, "without BMI2: density {density}, radius {r}, {params:?}");
                        views += 1;
                    }
                }
            }
        }
        assert!(views > 100_000);
    }

    /// The views the tables do not take: the square off the map, radius 0 or over 4, no
    /// radius, a grid that keeps block reads out.
    #[test]
    fn views_near_the_edge_or_of_other_radii_or_recorded_are_scanned() {
        let grid = OpacityGrid::new(10, 10);
        let takes_view = |x: i32, y: i32, radius: Option<u32>| {
            let params = FovParams { origin: Cell::new(x, y), radius, light_walls: true };
            let mut taken = false;
            view_of(&grid, params, |ctx| taken = takes(ctx));
            taken
        };
        assert!(takes_view(4, 4, Some(4)) && takes_view(5, 5, Some(4)));
        assert!(!takes_view(3, 4, Some(4)) && !takes_view(4, 6, Some(4)), "the square leaves the map");
        assert!(takes_view(1, 8, Some(1)) && !takes_view(0, 8, Some(1)) && !takes_view(5, 5, Some(0)));
        assert!(!takes_view(5, 5, Some(5)) && !takes_view(5, 5, None));

        let mut visible = VisibleSet::new(10, 10);
        let recording = CellByCell(&grid);
        let ctx = FovContext {
            grid: &recording,
            ox: 5,
            oy: 5,
            radius_squared: 16,
            reach: 4,
            light_walls: true,
            visible: &mut visible,
        };
        assert!(!takes(&ctx));
    }

    /// The table's promise: when none of the outside cells listed for a pattern is recorded,
    /// recording any of the others (in any combination) leaves the octant's view as the table
    /// has it. Random patterns of radius 4 and random records, against the scan's octant.
    #[test]
    fn outside_cells_not_listed_leave_the_tables_view() {
        let table = table(MAX_RADIUS);
        let mut octant = CanonicalOctant::new(MAX_RADIUS);
        let mut rng = Rng::new(5);
        let (mut kept, mut listed) = (0, 0);
        for _ in 0..20_000 {
            let pattern = rng.below(1 << octant.cells.len());
            let recorded = rng.below(1 << octant.outside.len());
            octant.set_pattern(pattern);
            let seen = octant.seen_with(recorded);
            let entry = table.entries[pattern as usize];
            if recorded & (entry >> 16) == 0 {
                assert_eq!(seen, entry & 0x3fff, "pattern {pattern:#b}, recorded {recorded:#b}");
                kept += usize::from(recorded != 0);
            } else {
                listed += 1;
            }
        }
        // Both sides of the test are taken often.
        assert!(kept > 1000 && listed > 200, "kept {kept}, listed {listed}");
    }
}
