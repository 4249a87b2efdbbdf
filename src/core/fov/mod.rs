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
mod permissive;
mod ray;
mod shadowcast;
mod shadowline;
mod symmetric;

use serde::{Deserialize, Serialize};

use super::geometry::Cell;
use super::map::Map;

/// What an FOV algorithm needs to know of a map: which cells block sight.
pub trait Opacity {
    fn width(&self) -> i32;
    fn height(&self) -> i32;
    /// Whether `(x, y)` blocks sight; out of bounds is opaque.
    fn is_opaque(&self, x: i32, y: i32) -> bool;
}

/// Opacity of every cell, one byte each (`1` opaque), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpacityGrid {
    width: i32,
    height: i32,
    cells: Vec<u8>,
}

impl OpacityGrid {
    /// All transparent.
    pub fn new(width: u32, height: u32) -> Self {
        Self { width: width as i32, height: height as i32, cells: vec![0; width as usize * height as usize] }
    }

    /// The opacity of every cell of a map, by its [rules](crate::core::rules).
    pub fn from_map(map: &Map) -> Self {
        let rules = map.rules_grid();
        Self {
            width: map.width() as i32,
            height: map.height() as i32,
            cells: rules.opaque.iter().map(|&o| u8::from(o)).collect(),
        }
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
        }
    }

    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32 && (y as u32) < self.height as u32
    }
}

impl Opacity for OpacityGrid {
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
            for y in y0..=y1 {
                let row = y as usize * self.words_per_row;
                self.words[row + w0..=row + w1].fill(0);
            }
        }
    }

    /// Declares the rectangle the next computation will write in (clamped to the set).
    fn begin(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) {
        self.clear();
        let r = (x0.max(0), y0.max(0), x1.min(self.width - 1), y1.min(self.height - 1));
        if r.0 <= r.2 && r.1 <= r.3 {
            self.touched = Some(r);
        }
    }

    /// Marks a cell inside the rectangle the computation declared (the algorithms' fast path:
    /// `count`, `iter` and `clear` only look inside that rectangle); cells off the set are ignored.
    #[inline]
    pub(crate) fn mark(&mut self, x: i32, y: i32) {
        if (x as u32) < self.width as u32 && (y as u32) < self.height as u32 {
            self.words[y as usize * self.words_per_row + x as usize / 64] |= 1 << (x % 64);
        }
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

    /// Visible cells, row by row (sorted by y, then x).
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        let (x0, y0, x1, y1) = self.touched.unwrap_or((0, 0, -1, -1));
        (y0..=y1).flat_map(move |y| (x0..=x1).filter(move |&x| self.contains(x, y)).map(move |x| Cell::new(x, y)))
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
}

/// Computes the field of view of `algorithm` into `visible` (which is cleared first; it must
/// have the grid's size: see [`VisibleSet::new`]).
pub fn compute<O: Opacity>(algorithm: Algorithm, grid: &O, params: FovParams, visible: &mut VisibleSet) {
    debug_assert_eq!((visible.width(), visible.height()), (grid.width(), grid.height()));
    let Cell { x: ox, y: oy } = params.origin;
    let (radius_squared, reach) = match params.radius {
        Some(r) => (i64::from(r) * i64::from(r), r.min(i32::MAX as u32) as i32),
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
    match algorithm {
        Algorithm::Circle => circle::compute(&mut ctx),
        Algorithm::Ray => ray::compute(&mut ctx),
        Algorithm::Diamond => diamond::compute(&mut ctx),
        Algorithm::Shadowcast => shadowcast::compute(&mut ctx),
        Algorithm::Shadowline => shadowline::compute(&mut ctx),
        Algorithm::Symmetric => symmetric::compute(&mut ctx),
        Algorithm::Permissive => permissive::compute(&mut ctx),
        Algorithm::Milazzo => milazzo::compute(&mut ctx),
        Algorithm::Mrpas => mrpas::compute(&mut ctx),
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
