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
mod opacity;
mod open_rows;
mod permissive;
mod ray;
mod scan;
mod shadowcast;
mod shadowline;
mod small_box;
mod symmetric;
pub mod targeting;
mod visible;

pub use opacity::*;
pub(crate) use scan::*;
pub use visible::*;

use serde::{Deserialize, Serialize};

use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;

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
